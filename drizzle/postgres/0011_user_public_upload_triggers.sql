-- users.public_uploads: how many public uploads each account has, kept by a trigger on
-- uploads so every path that adds or deletes an upload, changes its privacy or its
-- owner keeps it right (an account deleted with its uploads takes its count along).
UPDATE "users" SET "public_uploads" = (SELECT count(*) FROM "uploads" WHERE "user_id" = "users"."id" AND "is_private" = 0);
--> statement-breakpoint
CREATE FUNCTION "uploads_user_public_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."is_private" = 0 THEN
    UPDATE "users" SET "public_uploads" = "public_uploads" - 1 WHERE "id" = OLD."user_id";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."is_private" = 0 THEN
    UPDATE "users" SET "public_uploads" = "public_uploads" + 1 WHERE "id" = NEW."user_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "uploads_user_public_count" AFTER INSERT OR DELETE ON "uploads"
  FOR EACH ROW EXECUTE FUNCTION "uploads_user_public_count"();
--> statement-breakpoint
CREATE TRIGGER "uploads_user_public_count_update" AFTER UPDATE OF "is_private", "user_id" ON "uploads"
  FOR EACH ROW WHEN (OLD."is_private" IS DISTINCT FROM NEW."is_private" OR OLD."user_id" IS DISTINCT FROM NEW."user_id")
  EXECUTE FUNCTION "uploads_user_public_count"();
