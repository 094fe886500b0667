-- search_words.public_uploads: how many public uploads have the word in their description,
-- so a search for one common word reads its total instead of counting every upload that has
-- it (docs/database.md, "Kept counts"). The words are the lexemes of uploads.search_vector,
-- the column `text:` matches, each upload counting a word once. The rows are shared by every
-- upload that says a common word, so they move at COMMIT, like the day's and month's counts
-- (deferred triggers, after uploads_counts by name), each upload's words in key order. A
-- count that reaches 0 keeps its row.
CREATE FUNCTION "uploads_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "left_words" text[] := '{}';
  "joined_words" text[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."is_private" = 0 THEN
    "left_words" := tsvector_to_array(OLD."search_vector");
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."is_private" = 0 THEN
    "joined_words" := tsvector_to_array(NEW."search_vector");
  END IF;
  INSERT INTO "search_words" ("word", "public_uploads")
    SELECT c."word", sum(c."n") FROM (
      SELECT unnest("left_words") AS "word", -1 AS "n"
      UNION ALL
      SELECT unnest("joined_words"), 1
    ) c GROUP BY c."word" HAVING sum(c."n") <> 0 ORDER BY c."word"
    ON CONFLICT ("word") DO UPDATE SET "public_uploads" = "search_words"."public_uploads" + excluded."public_uploads";
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO "search_words" ("word", "public_uploads")
  SELECT w."word", count(*) FROM "uploads" u CROSS JOIN LATERAL unnest(tsvector_to_array(u."search_vector")) AS w("word")
  WHERE u."is_private" = 0 GROUP BY w."word";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "uploads_search_words_insert" AFTER INSERT ON "uploads"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."is_private" = 0) EXECUTE FUNCTION "uploads_search_words"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "uploads_search_words_update" AFTER UPDATE OF "description", "is_private" ON "uploads"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."is_private" = 0 OR NEW."is_private" = 0)
    AND (OLD."description" IS DISTINCT FROM NEW."description" OR OLD."is_private" IS DISTINCT FROM NEW."is_private"))
  EXECUTE FUNCTION "uploads_search_words"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "uploads_search_words_delete" AFTER DELETE ON "uploads"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."is_private" = 0) EXECUTE FUNCTION "uploads_search_words"();
