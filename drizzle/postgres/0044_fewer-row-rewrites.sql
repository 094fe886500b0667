-- uploads.tag_ids is written only when it changes. An edit sets it with the row's other
-- columns in the statement that adds its links; the links' triggers, which run after that
-- statement, find it already right. An edit that swaps a tag wrote the upload row three
-- times (each a non-HOT update, with an entry in every one of the row's indexes, tag_ids'
-- GIN index among them), now twice; one that only adds or only removes tags, once. A
-- statement that links several tags at once writes it once instead of once per link.
CREATE OR REPLACE FUNCTION "upload_tag_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    ids := coalesce((SELECT string_agg("tag_id", ',' ORDER BY "position") FROM "upload_tags" WHERE "upload_id" = OLD."upload_id"), '');
    UPDATE "uploads" SET "tag_ids" = ids WHERE "id" = OLD."upload_id" AND "tag_ids" IS DISTINCT FROM ids;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."upload_id" IS DISTINCT FROM OLD."upload_id") THEN
    ids := coalesce((SELECT string_agg("tag_id", ',' ORDER BY "position") FROM "upload_tags" WHERE "upload_id" = NEW."upload_id"), '');
    UPDATE "uploads" SET "tag_ids" = ids WHERE "id" = NEW."upload_id" AND "tag_ids" IS DISTINCT FROM ids;
  END IF;
  RETURN NULL;
END $$;
