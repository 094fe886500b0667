CREATE TABLE "favourites" (
	"user_id" text NOT NULL,
	"upload_id" text NOT NULL,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL,
	CONSTRAINT "favourites_user_id_upload_id_pk" PRIMARY KEY("user_id","upload_id")
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "favourites" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "public_favourites" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favourites" ADD CONSTRAINT "favourites_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "favourites_user_newest_idx" ON "favourites" USING btree ("user_id","created_at","upload_id");--> statement-breakpoint
CREATE INDEX "favourites_upload_idx" ON "favourites" USING btree ("upload_id");--> statement-breakpoint
CREATE INDEX "uploads_public_favourites_idx" ON "uploads" USING btree ("favourites" desc,"created_at" desc,"id" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
CREATE INDEX "uploads_public_day_favourites_idx" ON "uploads" USING btree ("created_day","favourites" desc,"created_at" desc,"id" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
-- uploads.favourites: how many accounts favourited the upload, kept by a trigger on favourites so
-- every path that adds or removes one (PUT/DELETE of the favourite, an account or an upload
-- deleted with its favourites) keeps it right. The table is new: every count starts at 0.
-- The upload row is the only row it writes (place 1 of the lock order); a favourite's foreign
-- key check holds that row FOR KEY SHARE first, which no counter update waits for.
CREATE FUNCTION "favourites_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "uploads" SET "favourites" = "favourites" + 1 WHERE "id" = NEW."upload_id";
  ELSE
    UPDATE "uploads" SET "favourites" = "favourites" - 1 WHERE "id" = OLD."upload_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "favourites_count" AFTER INSERT OR DELETE ON "favourites" FOR EACH ROW EXECUTE FUNCTION "favourites_count"();
