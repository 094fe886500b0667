-- The day's, month's and owner's counts of public uploads (upload_days, upload_months,
-- users.public_uploads) are rows every new upload of a day shares. Moved by row
-- triggers as the upload row is written, they stayed locked through the rest of the
-- transaction (the tags, their counts and pairs, the first revision), so uploads went
-- one at a time. They now move at COMMIT (docs/database.md, "Kept counts"): deferred
-- triggers fire in the order their rows were written, with the row's values as it was
-- written, so the counts end exactly as before and the rows are held only for the commit.
DROP TRIGGER "uploads_counts_insert" ON "uploads";
--> statement-breakpoint
DROP TRIGGER "uploads_counts_update" ON "uploads";
--> statement-breakpoint
DROP TRIGGER "uploads_counts_delete" ON "uploads";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "uploads_counts_insert" AFTER INSERT ON "uploads"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."is_private" = 0) EXECUTE FUNCTION "uploads_counts"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "uploads_counts_update" AFTER UPDATE OF "is_private", "created_at", "user_id" ON "uploads"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."is_private" IS DISTINCT FROM NEW."is_private" OR OLD."created_at" IS DISTINCT FROM NEW."created_at" OR OLD."user_id" IS DISTINCT FROM NEW."user_id")
  EXECUTE FUNCTION "uploads_counts"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "uploads_counts_delete" AFTER DELETE ON "uploads"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."is_private" = 0) EXECUTE FUNCTION "uploads_counts"();
