CREATE TABLE "rank_copies_pending" (
	"upload_id" text PRIMARY KEY NOT NULL
);

--> statement-breakpoint
-- A link's copies of its upload's date and privacy are written at once, as before, with
-- every other copy; a change of the counts alone (a vote) only marks the upload pending
-- (server/services/rank-copies.ts copies its counts before a tag's ranked page is read).
DROP TRIGGER "uploads_tag_order" ON "uploads";
--> statement-breakpoint
CREATE TRIGGER "uploads_tag_order" AFTER UPDATE OF "is_private", "created_at" ON "uploads"
  FOR EACH ROW WHEN (OLD."is_private" IS DISTINCT FROM NEW."is_private" OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "uploads_tag_order"();
--> statement-breakpoint
CREATE FUNCTION "uploads_rank_copies_pending"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "rank_copies_pending" ("upload_id") VALUES (NEW."id") ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "uploads_rank_copies_pending" AFTER UPDATE OF "upvotes", "downvote_count" ON "uploads"
  FOR EACH ROW WHEN ((OLD."upvotes" IS DISTINCT FROM NEW."upvotes" OR OLD."downvote_count" IS DISTINCT FROM NEW."downvote_count")
    AND OLD."is_private" IS NOT DISTINCT FROM NEW."is_private" AND OLD."created_at" IS NOT DISTINCT FROM NEW."created_at" AND NEW."tag_ids" <> '')
  EXECUTE FUNCTION "uploads_rank_copies_pending"();
