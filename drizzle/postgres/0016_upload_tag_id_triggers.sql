-- uploads.tag_ids: the upload's tag ids in the order they were added (position),
-- comma-separated, kept by a trigger on upload_tags so every path that links, moves or
-- unlinks a tag keeps it right. A cascade from a deleted upload finds the upload gone.
UPDATE "uploads" u SET "tag_ids" = l."tag_ids"
  FROM (SELECT "upload_id", string_agg("tag_id", ',' ORDER BY "position") AS "tag_ids" FROM "upload_tags" GROUP BY "upload_id") l
  WHERE u."id" = l."upload_id";
--> statement-breakpoint
CREATE FUNCTION "upload_tag_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "uploads" SET "tag_ids" = coalesce((SELECT string_agg("tag_id", ',' ORDER BY "position") FROM "upload_tags" WHERE "upload_id" = OLD."upload_id"), '')
      WHERE "id" = OLD."upload_id";
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."upload_id" IS DISTINCT FROM OLD."upload_id") THEN
    UPDATE "uploads" SET "tag_ids" = coalesce((SELECT string_agg("tag_id", ',' ORDER BY "position") FROM "upload_tags" WHERE "upload_id" = NEW."upload_id"), '')
      WHERE "id" = NEW."upload_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "upload_tags_tag_ids" AFTER INSERT OR UPDATE OR DELETE ON "upload_tags"
  FOR EACH ROW EXECUTE FUNCTION "upload_tag_ids"();
