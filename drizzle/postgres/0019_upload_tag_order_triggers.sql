-- upload_tags.upload_created_at and upload_is_private: the upload's, kept by triggers so
-- every path that links a tag or changes an upload's privacy (or date) keeps them right,
-- and a tag's public uploads newest first are one range of upload_tags_tag_newest_idx.
-- First the tag ids' trigger follows only the columns they are made of: the copies
-- written below would otherwise rewrite the upload once per link.
DROP TRIGGER "upload_tags_tag_ids" ON "upload_tags";
--> statement-breakpoint
CREATE TRIGGER "upload_tags_tag_ids" AFTER INSERT OR UPDATE OF "upload_id", "tag_id", "position" OR DELETE ON "upload_tags"
  FOR EACH ROW EXECUTE FUNCTION "upload_tag_ids"();
--> statement-breakpoint
UPDATE "upload_tags" ut SET "upload_created_at" = u."created_at", "upload_is_private" = u."is_private"
  FROM "uploads" u WHERE u."id" = ut."upload_id";
--> statement-breakpoint
CREATE FUNCTION "upload_tag_upload_order"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT "created_at", "is_private" INTO NEW."upload_created_at", NEW."upload_is_private" FROM "uploads" WHERE "id" = NEW."upload_id";
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "upload_tags_upload_order" BEFORE INSERT OR UPDATE OF "upload_id" ON "upload_tags"
  FOR EACH ROW EXECUTE FUNCTION "upload_tag_upload_order"();
--> statement-breakpoint
CREATE FUNCTION "uploads_tag_order"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "upload_tags" SET "upload_created_at" = NEW."created_at", "upload_is_private" = NEW."is_private" WHERE "upload_id" = NEW."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "uploads_tag_order" AFTER UPDATE OF "is_private", "created_at" ON "uploads"
  FOR EACH ROW WHEN (OLD."is_private" IS DISTINCT FROM NEW."is_private" OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "uploads_tag_order"();
