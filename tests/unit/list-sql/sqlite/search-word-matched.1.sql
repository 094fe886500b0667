-- GET /api/search?q=text:cats, top (a rare word: matched and counted)
SELECT (SELECT count(*) FROM search_word_tokens WHERE input = ?) AS words,
    (SELECT w.public_uploads FROM search_words w WHERE w.word = (SELECT max(token) FROM search_word_tokens WHERE input = ?)) AS found,
    (SELECT coalesce(sum(m.public_uploads), 0) FROM upload_months m) AS "all"
-- 1: "cats"
-- 2: "cats"
