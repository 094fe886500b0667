-- GET /api/search?q=votes:>=10 cats, top (the tag's links walked and counted)
SELECT slug, public_uploads FROM tags WHERE slug IN (SELECT value FROM json_each(?))
-- 1: "[\"cats\"]"
