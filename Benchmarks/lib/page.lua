-- One page, PAGE_PATH, with the optional COOKIE from the environment (a reader's own pages).
local cookie = os.getenv("COOKIE")
local path = os.getenv("PAGE_PATH")

request = function()
  local headers = {}
  if cookie and cookie ~= "" then headers["Cookie"] = cookie end
  return wrk.format("GET", path, headers)
end
