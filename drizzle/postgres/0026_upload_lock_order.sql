-- Every change to an upload takes the rows its kept counts live in in one order: the
-- upload, its day (upload_days), its owner (users.public_uploads), its tags in slug
-- order, then its tag pairs in key order (the tag_pair_triggers migration). A deletion
-- had taken the tags before the day and the owner (a BEFORE trigger, which must read the
-- links before they cascade away, then AFTER triggers), and a privacy change the day
-- before the tags, each tag in whatever order the plan read them; adding tags takes them
-- in slug order (server/services/upload-tags.ts). Uploads of one day sharing tags,
-- deleted, hidden and tagged side by side, deadlocked and waited out deadlock_timeout
-- each time, and some answered 500 after five tries. Now the day and the owner are
-- counted by one trigger that runs first on every path (BEFORE DELETE, and first by name
-- among the AFTER UPDATE triggers), and the tags are locked in slug order first.
DROP TRIGGER "uploads_day_count" ON "uploads";
--> statement-breakpoint
DROP TRIGGER "uploads_day_count_update" ON "uploads";
--> statement-breakpoint
DROP TRIGGER "uploads_user_public_count" ON "uploads";
--> statement-breakpoint
DROP TRIGGER "uploads_user_public_count_update" ON "uploads";
--> statement-breakpoint
DROP FUNCTION "uploads_day_count"();
--> statement-breakpoint
DROP FUNCTION "uploads_user_public_count"();
--> statement-breakpoint
CREATE FUNCTION "uploads_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."is_private" = 0 THEN
    UPDATE "upload_days" SET "public_uploads" = "public_uploads" - 1 WHERE "day" = substr(OLD."created_at", 1, 10);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."is_private" = 0 THEN
    INSERT INTO "upload_days" ("day", "public_uploads") VALUES (substr(NEW."created_at", 1, 10), 1)
      ON CONFLICT ("day") DO UPDATE SET "public_uploads" = "upload_days"."public_uploads" + 1;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."is_private" = 0 THEN
    UPDATE "users" SET "public_uploads" = "public_uploads" - 1 WHERE "id" = OLD."user_id";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."is_private" = 0 THEN
    UPDATE "users" SET "public_uploads" = "public_uploads" + 1 WHERE "id" = NEW."user_id";
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
--> statement-breakpoint
CREATE TRIGGER "uploads_counts_insert" AFTER INSERT ON "uploads"
  FOR EACH ROW WHEN (NEW."is_private" = 0) EXECUTE FUNCTION "uploads_counts"();
--> statement-breakpoint
CREATE TRIGGER "uploads_counts_delete" BEFORE DELETE ON "uploads"
  FOR EACH ROW WHEN (OLD."is_private" = 0) EXECUTE FUNCTION "uploads_counts"();
--> statement-breakpoint
CREATE TRIGGER "uploads_counts_update" AFTER UPDATE OF "is_private", "created_at", "user_id" ON "uploads"
  FOR EACH ROW WHEN (OLD."is_private" IS DISTINCT FROM NEW."is_private" OR OLD."created_at" IS DISTINCT FROM NEW."created_at"
    OR OLD."user_id" IS DISTINCT FROM NEW."user_id")
  EXECUTE FUNCTION "uploads_counts"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "uploads_public_tag_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD."is_private" = 0 THEN
      PERFORM 1 FROM "tags" WHERE "id" IN (SELECT "tag_id" FROM "upload_tags" WHERE "upload_id" = OLD."id")
        ORDER BY "slug" COLLATE "C" FOR UPDATE;
      UPDATE "tags" SET "public_uploads" = "public_uploads" - 1
        WHERE "id" IN (SELECT "tag_id" FROM "upload_tags" WHERE "upload_id" = OLD."id");
    END IF;
    RETURN OLD;
  END IF;
  IF OLD."is_private" <> NEW."is_private" THEN
    PERFORM 1 FROM "tags" WHERE "id" IN (SELECT "tag_id" FROM "upload_tags" WHERE "upload_id" = NEW."id")
      ORDER BY "slug" COLLATE "C" FOR UPDATE;
    UPDATE "tags" SET "public_uploads" = "public_uploads" + (CASE WHEN NEW."is_private" = 0 THEN 1 ELSE -1 END)
      WHERE "id" IN (SELECT "tag_id" FROM "upload_tags" WHERE "upload_id" = NEW."id");
  END IF;
  RETURN NEW;
END $$;
