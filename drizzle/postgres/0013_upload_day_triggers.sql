-- upload_days.public_uploads: public uploads per UTC day of created_at, kept by a trigger
-- on uploads so every path that adds or deletes an upload or changes its privacy keeps it
-- right (an account deleted with its uploads takes its days' counts down with it).
INSERT INTO "upload_days" ("day", "public_uploads")
  SELECT substr("created_at", 1, 10), count(*) FROM "uploads" WHERE "is_private" = 0 GROUP BY 1;
--> statement-breakpoint
CREATE FUNCTION "uploads_day_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."is_private" = 0 THEN
    UPDATE "upload_days" SET "public_uploads" = "public_uploads" - 1 WHERE "day" = substr(OLD."created_at", 1, 10);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."is_private" = 0 THEN
    INSERT INTO "upload_days" ("day", "public_uploads") VALUES (substr(NEW."created_at", 1, 10), 1)
      ON CONFLICT ("day") DO UPDATE SET "public_uploads" = "upload_days"."public_uploads" + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "uploads_day_count" AFTER INSERT OR DELETE ON "uploads"
  FOR EACH ROW EXECUTE FUNCTION "uploads_day_count"();
--> statement-breakpoint
CREATE TRIGGER "uploads_day_count_update" AFTER UPDATE OF "is_private", "created_at" ON "uploads"
  FOR EACH ROW WHEN (OLD."is_private" IS DISTINCT FROM NEW."is_private" OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "uploads_day_count"();
