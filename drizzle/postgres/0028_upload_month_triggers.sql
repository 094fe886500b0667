-- upload_months.public_uploads: kept like upload_days, by the same trigger function
-- (the upload_lock_order migration), which takes the month right after the day, so the
-- lock order stays the upload, its day, its month, its owner, its tags, its tag pairs.
CREATE OR REPLACE FUNCTION "uploads_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."is_private" = 0 THEN
    UPDATE "upload_days" SET "public_uploads" = "public_uploads" - 1 WHERE "day" = substr(OLD."created_at", 1, 10);
    UPDATE "upload_months" SET "public_uploads" = "public_uploads" - 1 WHERE "month" = substr(OLD."created_at", 1, 7);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."is_private" = 0 THEN
    INSERT INTO "upload_days" ("day", "public_uploads") VALUES (substr(NEW."created_at", 1, 10), 1)
      ON CONFLICT ("day") DO UPDATE SET "public_uploads" = "upload_days"."public_uploads" + 1;
    INSERT INTO "upload_months" ("month", "public_uploads") VALUES (substr(NEW."created_at", 1, 7), 1)
      ON CONFLICT ("month") DO UPDATE SET "public_uploads" = "upload_months"."public_uploads" + 1;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."is_private" = 0 THEN
    UPDATE "users" SET "public_uploads" = "public_uploads" - 1 WHERE "id" = OLD."user_id";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."is_private" = 0 THEN
    UPDATE "users" SET "public_uploads" = "public_uploads" + 1 WHERE "id" = NEW."user_id";
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
