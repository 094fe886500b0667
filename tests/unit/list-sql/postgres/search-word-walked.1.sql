-- GET /api/search?q=text:cats, newest (a common word: its kept count, the list walked)
SELECT cardinality(tsvector_to_array(to_tsvector('simple', search_text($1)))) AS words,
    (SELECT w.public_uploads FROM search_words w WHERE w.word = (tsvector_to_array(to_tsvector('simple', search_text($2))))[1]) AS found,
    (SELECT coalesce(sum(m.public_uploads), 0) FROM upload_months m) AS "all"
-- 1: "cats"
-- 2: "cats"
