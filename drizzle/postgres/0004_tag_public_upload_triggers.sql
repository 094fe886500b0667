-- tags.public_uploads: how many public uploads carry each tag, kept by triggers so
-- every path that adds or removes a tag, deletes an upload or changes its privacy
-- keeps it right. A cascade from a deleted upload finds the upload gone, so only
-- the upload's own trigger counts it.
UPDATE "tags" SET "public_uploads" = (SELECT count(*) FROM "upload_tags" ut JOIN "uploads" u ON u."id" = ut."upload_id" AND u."is_private" = 0 WHERE ut."tag_id" = "tags"."id");
--> statement-breakpoint
CREATE FUNCTION "upload_tags_public_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "tags" SET "public_uploads" = "public_uploads" + 1
      WHERE "id" = NEW."tag_id" AND EXISTS (SELECT 1 FROM "uploads" WHERE "id" = NEW."upload_id" AND "is_private" = 0);
  ELSE
    UPDATE "tags" SET "public_uploads" = "public_uploads" - 1
      WHERE "id" = OLD."tag_id" AND EXISTS (SELECT 1 FROM "uploads" WHERE "id" = OLD."upload_id" AND "is_private" = 0);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "upload_tags_public_count" AFTER INSERT OR DELETE ON "upload_tags"
  FOR EACH ROW EXECUTE FUNCTION "upload_tags_public_count"();
--> statement-breakpoint
CREATE FUNCTION "uploads_public_tag_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD."is_private" = 0 THEN
      UPDATE "tags" SET "public_uploads" = "public_uploads" - 1
        WHERE "id" IN (SELECT "tag_id" FROM "upload_tags" WHERE "upload_id" = OLD."id");
    END IF;
    RETURN OLD;
  END IF;
  IF OLD."is_private" <> NEW."is_private" THEN
    UPDATE "tags" SET "public_uploads" = "public_uploads" + (CASE WHEN NEW."is_private" = 0 THEN 1 ELSE -1 END)
      WHERE "id" IN (SELECT "tag_id" FROM "upload_tags" WHERE "upload_id" = NEW."id");
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "uploads_public_tag_count_delete" BEFORE DELETE ON "uploads"
  FOR EACH ROW EXECUTE FUNCTION "uploads_public_tag_count"();
--> statement-breakpoint
CREATE TRIGGER "uploads_public_tag_count_privacy" AFTER UPDATE OF "is_private" ON "uploads"
  FOR EACH ROW EXECUTE FUNCTION "uploads_public_tag_count"();
