-- wrk script for bench/service.sh: optional POST body from a file (argument 1,
-- content type argument 2) and a count of responses per HTTP status, summed
-- over wrk's threads and printed as "status <code> <count>".
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  codes = {}
  if args[1] then
    local f = assert(io.open(args[1], "rb"))
    wrk.body = f:read("*a")
    f:close()
    wrk.method = "POST"
    wrk.headers["Content-Type"] = args[2] or "application/octet-stream"
  end
end

function response(status, headers, body)
  codes[status] = (codes[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    for code, n in pairs(t:get("codes")) do
      total[code] = (total[code] or 0) + n
    end
  end
  local keys = {}
  for code in pairs(total) do table.insert(keys, code) end
  table.sort(keys)
  for _, code in ipairs(keys) do
    io.write(string.format("status %d %d\n", code, total[code]))
  end
  io.write(string.format("socket_errors connect %d read %d write %d timeout %d\n", summary.errors.connect,
                         summary.errors.read, summary.errors.write, summary.errors.timeout))
end
