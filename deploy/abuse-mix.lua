-- wrk script for deploy/abuse-test.sh: the normal traffic. The requests of deploy/lb-mix.lua
-- (real moves, play and judge requests, the same rotation), paced by a delay per connection
-- (first script argument, milliseconds), every answer sorted: a correct 2xx (an Arbiter answer),
-- a 2xx with a wrong body, 503 `overloaded` (shed, with a Retry-After header), anything else.
-- wrk is run from the repository root.

dofile("deploy/lb-mix.lua") -- defines request() and the request list it rotates through

local base_init = init
local threads = {}

function setup(thread)
    thread:set("id", #threads)
    table.insert(threads, thread)
end

function init(args)
    base_init(args)
    delay_ms = tonumber(args[1] or "0") or 0
    ok = 0
    bad_body = 0
    overloaded = 0
    other = 0
    other_hist = {}
end

function delay()
    return delay_ms
end

local function problem_code(body)
    return body and string.match(body, '"code"%s*:%s*"([^"]+)"') or "-"
end

local function header(headers, name)
    for k, v in pairs(headers) do
        if string.lower(k) == name then return v end
    end
    return nil
end

function response(status, headers, body)
    if status >= 200 and status <= 299 then
        if body and string.find(body, '"variant":"', 1, true) then
            ok = ok + 1
        else
            bad_body = bad_body + 1
        end
        return
    end
    local code = problem_code(body)
    if status == 503 and code == "overloaded" and header(headers, "retry-after") then
        overloaded = overloaded + 1
        return
    end
    other = other + 1
    local key = status .. ":" .. code
    other_hist[key] = (other_hist[key] or 0) + 1
end

function done(summary, latency, requests)
    local t = { ok = 0, bad_body = 0, overloaded = 0, other = 0 }
    local hist = {}
    for _, th in ipairs(threads) do
        for k, _ in pairs(t) do t[k] = t[k] + th:get(k) end
        for k, v in pairs(th:get("other_hist")) do hist[k] = (hist[k] or 0) + v end
    end
    local parts = {}
    for k, v in pairs(hist) do table.insert(parts, k .. "=" .. v) end
    table.sort(parts)
    local e = summary.errors
    io.write(string.format(
        "ABUSEMIX requests=%d ok=%d badbody=%d overloaded=%d other=%d connect=%d read=%d write=%d timeout=%d seconds=%.2f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f others=%s\n",
        summary.requests, t.ok, t.bad_body, t.overloaded, t.other,
        e.connect, e.read, e.write, e.timeout, summary.duration / 1e6,
        latency:percentile(50) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3,
        #parts > 0 and table.concat(parts, ",") or "none"))
end
