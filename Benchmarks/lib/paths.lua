-- Pages from PATHS (space-separated; spaces inside a path written %20), with an optional COOKIE,
-- both from the environment: a random one per request, or each in turn with SEQUENTIAL=1 (a
-- warm-up that reaches every path).
local cookie = os.getenv("COOKIE")
local sequential = os.getenv("SEQUENTIAL") == "1"
local paths = {}
for path in string.gmatch(os.getenv("PATHS"), "%S+") do table.insert(paths, path) end
math.randomseed(os.time())
local next_index = 0

request = function()
  local headers = {}
  if cookie and cookie ~= "" then headers["Cookie"] = cookie end
  local path
  if sequential then
    next_index = next_index % #paths + 1
    path = paths[next_index]
  else
    path = paths[math.random(#paths)]
  end
  return wrk.format("GET", path, headers)
end
