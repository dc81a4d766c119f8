-- wrk script for deploy/abuse-test.sh: one group of attack requests, sent in rotation, and a
-- histogram of the answers by status and problem code.
--
--   wrk ... -s deploy/abuse-attack.lua URL -- NAME SPEC
--
-- SPEC is a file with one request per line, tab-separated: METHOD, PATH (with its query),
-- Content-Type ("-" for none), body file ("-" for none). Histogram keys are "STATUS:CODE" (CODE
-- is the problem document's `code`, "-" when the answer has none, e.g. an nginx error page);
-- 2xx answers are "STATUS:ok". A 503 `overloaded` without a Retry-After header is counted as
-- "503:overloaded-without-retry-after", a non-2xx answer that is not application/problem+json
-- gets "(not-problem-json)" appended to its key.

local threads = {}

function setup(thread)
    thread:set("id", #threads)
    table.insert(threads, thread)
end

local function read_file(path)
    local f = assert(io.open(path, "rb"))
    local data = f:read("*a")
    f:close()
    return data
end

local requests

function init(args)
    name = args[1] or "attack"
    requests = {}
    local spec = assert(args[2], "no spec file")
    for line in io.lines(spec) do
        local method, path, ctype, bodyfile = string.match(line, "^(%S+)\t(%S+)\t(%S+)\t(%S+)$")
        if method then
            local headers = {}
            local body = nil
            if ctype ~= "-" then headers["Content-Type"] = ctype end
            if bodyfile ~= "-" then body = read_file(bodyfile) end
            table.insert(requests, wrk.format(method, path, headers, body))
        end
    end
    assert(#requests > 0, "no requests in " .. spec)
    counter = id or 0
    hist = {}
end

function request()
    counter = counter + 1
    return requests[(counter % #requests) + 1]
end

local function header(headers, wanted)
    for k, v in pairs(headers) do
        if string.lower(k) == wanted then return v end
    end
    return nil
end

function response(status, headers, body)
    local key
    if status >= 200 and status <= 299 then
        key = status .. ":ok"
    else
        local code = body and string.match(body, '"code"%s*:%s*"([^"]+)"') or "-"
        key = status .. ":" .. code
        if status == 503 and code == "overloaded" and not header(headers, "retry-after") then
            key = "503:overloaded-without-retry-after"
        end
        local ctype = header(headers, "content-type") or ""
        if not string.find(ctype, "application/problem+json", 1, true) then
            key = key .. "(not-problem-json)"
        end
    end
    hist[key] = (hist[key] or 0) + 1
end

function done(summary, latency, requests)
    local all = {}
    for _, t in ipairs(threads) do
        for k, v in pairs(t:get("hist")) do all[k] = (all[k] or 0) + v end
    end
    local parts = {}
    for k, v in pairs(all) do table.insert(parts, k .. "=" .. v) end
    table.sort(parts)
    local e = summary.errors
    io.write(string.format(
        "ABUSEATTACK name=%s requests=%d connect=%d read=%d write=%d timeout=%d seconds=%.2f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f hist=%s\n",
        threads[1] and threads[1]:get("name") or "?", summary.requests,
        e.connect, e.read, e.write, e.timeout, summary.duration / 1e6,
        latency:percentile(50) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3,
        #parts > 0 and table.concat(parts, ",") or "none"))
end
