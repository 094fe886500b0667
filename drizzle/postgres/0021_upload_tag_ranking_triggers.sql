-- The triggers that keep upload_tags' copies of its upload's date and privacy (0019)
-- keep its counts and rankings too, so every path that links a tag or moves an upload's
-- counts (a vote, a recount, a seeded row) keeps them right.
CREATE OR REPLACE FUNCTION "upload_tag_upload_order"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT "created_at", "is_private", "upvotes", "downvote_count", "hot_score", "best_score", "divisive_score"
    INTO NEW."upload_created_at", NEW."upload_is_private", NEW."upload_upvotes", NEW."upload_downvote_count",
      NEW."upload_hot_score", NEW."upload_best_score", NEW."upload_divisive_score"
    FROM "uploads" WHERE "id" = NEW."upload_id";
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "uploads_tag_order"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "upload_tags" SET "upload_created_at" = NEW."created_at", "upload_is_private" = NEW."is_private",
    "upload_upvotes" = NEW."upvotes", "upload_downvote_count" = NEW."downvote_count",
    "upload_hot_score" = NEW."hot_score", "upload_best_score" = NEW."best_score", "upload_divisive_score" = NEW."divisive_score"
    WHERE "upload_id" = NEW."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "uploads_tag_order" ON "uploads";
--> statement-breakpoint
CREATE TRIGGER "uploads_tag_order" AFTER UPDATE OF "is_private", "created_at", "upvotes", "downvote_count" ON "uploads"
  FOR EACH ROW WHEN (OLD."is_private" IS DISTINCT FROM NEW."is_private" OR OLD."created_at" IS DISTINCT FROM NEW."created_at"
    OR OLD."upvotes" IS DISTINCT FROM NEW."upvotes" OR OLD."downvote_count" IS DISTINCT FROM NEW."downvote_count")
  EXECUTE FUNCTION "uploads_tag_order"();
