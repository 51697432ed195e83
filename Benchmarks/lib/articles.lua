-- Random article pages; SLUGS (space-separated) and optional COOKIE from the environment.
local cookie = os.getenv("COOKIE")
local slugs = {}
for slug in string.gmatch(os.getenv("SLUGS"), "%S+") do table.insert(slugs, slug) end
math.randomseed(os.time())

request = function()
  local headers = {}
  if cookie and cookie ~= "" then headers["Cookie"] = cookie end
  return wrk.format("GET", "/articles/" .. slugs[math.random(#slugs)], headers)
end
