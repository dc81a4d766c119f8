-- wrk script for deploy/lb-test.sh: a mix of real Arbiter requests (moves, play, judge),
-- and a count of every answer that is not a correct 2xx.

local function post(path, body)
    return wrk.format("POST", path, { ["Content-Type"] = "application/json" }, body)
end

-- Built in init(): wrk sets the Host header only after the script is loaded.
local requests

local function build()
    return {
        post("/v1/variants/international/moves", '{"position": "W:W31-50:B1-20"}'),
        wrk.format("GET", "/v1/variants/english/moves"),
        post("/v1/variants/english/play", '{"moves": ["11-15", "23-19", "8-11", "22-17"]}'),
        post("/v1/variants/international/judge",
            '{"start_position": "W:W28:B23", "moves": ["28x19"], "declared_result": "2-0"}'),
        post("/v1/variants/english/judge",
            '{"start_position": "W:WK32:BK1", "moves": ["32-28","1-5","28-32","5-1","32-28","1-5","28-32","5-1"], "declared_result": "draw"}'),
        post("/v1/variants/russian/moves", '{}'),
        post("/v1/variants/international/play", '{"position": "W:W31-50:B1-20", "move": "32-28"}'),
    }
end

local threads = {}

function setup(thread)
    thread:set("id", #threads)
    table.insert(threads, thread)
end

function init(args)
    requests = build()
    answered = 0
    bad_status = 0
    bad_body = 0
    counter = id or 0
end

function request()
    counter = counter + 1
    return requests[(counter % #requests) + 1]
end

function response(status, headers, body)
    answered = answered + 1
    if status < 200 or status > 299 then
        bad_status = bad_status + 1
    elseif not body or not string.find(body, '"variant":"', 1, true) then
        bad_body = bad_body + 1
    end
end

function done(summary, latency, requests)
    local answered_all, bad_status_all, bad_body_all = 0, 0, 0
    for _, t in ipairs(threads) do
        answered_all = answered_all + t:get("answered")
        bad_status_all = bad_status_all + t:get("bad_status")
        bad_body_all = bad_body_all + t:get("bad_body")
    end
    local e = summary.errors
    io.write(string.format(
        "LBTEST requests=%d answered=%d non2xx=%d badbody=%d connect=%d read=%d write=%d timeout=%d status=%d seconds=%.2f\n",
        summary.requests, answered_all, bad_status_all, bad_body_all,
        e.connect, e.read, e.write, e.timeout, e.status, summary.duration / 1e6))
end
