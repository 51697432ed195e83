-- Logged-in like/unlike cycle: alternates POST like and POST unlike on a set of articles.
-- Needs COOKIE (the session) and SLUGS (space-separated) in the environment.
local cookie = os.getenv("COOKIE")
local slugs = {}
for slug in string.gmatch(os.getenv("SLUGS"), "%S+") do table.insert(slugs, slug) end
local counter = 0

request = function()
  counter = counter + 1
  local slug = slugs[(math.floor(counter / 2) % #slugs) + 1]
  local action = (counter % 2 == 0) and "/unlike" or "/like"
  return wrk.format("POST", "/articles/" .. slug .. action, {
    ["Cookie"] = cookie,
    ["Sec-Fetch-Site"] = "same-origin",
    ["Content-Type"] = "application/x-www-form-urlencoded",
  }, "")
end
