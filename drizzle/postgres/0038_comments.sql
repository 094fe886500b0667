CREATE TABLE "comment_votes" (
	"comment_id" text NOT NULL,
	"user_id" text NOT NULL,
	"value" integer NOT NULL,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL,
	CONSTRAINT "comment_votes_comment_id_user_id_pk" PRIMARY KEY("comment_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" text PRIMARY KEY NOT NULL,
	"upload_id" text NOT NULL,
	"author_id" text,
	"parent_id" text,
	"body" text NOT NULL,
	"html" text NOT NULL,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL,
	"edited_at" text,
	"deleted" integer DEFAULT 0 NOT NULL,
	"score" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "comments" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "comment_votes" ADD CONSTRAINT "comment_votes_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_votes" ADD CONSTRAINT "comment_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_parent_id_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_votes_user_idx" ON "comment_votes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "comments_upload_top_idx" ON "comments" USING btree ("upload_id","parent_id","created_at","id");--> statement-breakpoint
CREATE INDEX "comments_parent_idx" ON "comments" USING btree ("parent_id","created_at","id");--> statement-breakpoint
CREATE INDEX "comments_author_idx" ON "comments" USING btree ("author_id");--> statement-breakpoint
-- uploads.comments: the upload's comments anyone may see (not deleted, author not
-- shadow-banned), kept by triggers so every path that adds, deletes or hides one (posting,
-- deleting, a shadow ban, an account deleted) keeps it right. Each recounts the upload's
-- comments on comments_upload_top_idx; a path that writes comments locks the upload row
-- first (place 1 of the lock order), so the recount's snapshot sees every committed
-- comment. The table is new: every count starts at 0.
CREATE FUNCTION "comments_count"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target text := CASE WHEN TG_OP = 'DELETE' THEN OLD."upload_id" ELSE NEW."upload_id" END;
BEGIN
  UPDATE "uploads" SET "comments" = (SELECT count(*) FROM "comments" c WHERE c."upload_id" = target AND c."deleted" = 0
    AND NOT EXISTS (SELECT 1 FROM "users" us WHERE us."id" = c."author_id" AND us."shadow_banned" = 1)) WHERE "id" = target;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "comments_count" AFTER INSERT OR DELETE OR UPDATE OF "deleted", "author_id" ON "comments" FOR EACH ROW EXECUTE FUNCTION "comments_count"();
--> statement-breakpoint
CREATE FUNCTION "users_comments_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "uploads" SET "comments" = (SELECT count(*) FROM "comments" c WHERE c."upload_id" = "uploads"."id" AND c."deleted" = 0
    AND NOT EXISTS (SELECT 1 FROM "users" us WHERE us."id" = c."author_id" AND us."shadow_banned" = 1))
  WHERE "id" IN (SELECT "upload_id" FROM "comments" WHERE "author_id" = NEW."id");
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_comments_count_shadow_ban" AFTER UPDATE OF "shadow_banned" ON "users" FOR EACH ROW
  WHEN (OLD."shadow_banned" IS DISTINCT FROM NEW."shadow_banned") EXECUTE FUNCTION "users_comments_count"();
