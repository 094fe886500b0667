CREATE TABLE "email_verification_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" text NOT NULL,
	"used_at" text,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_deletions" (
	"upload_id" text PRIMARY KEY NOT NULL,
	"filename" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL
);
--> statement-breakpoint
ALTER TABLE "moderation_log" ADD COLUMN "actor_username" text;--> statement-breakpoint
ALTER TABLE "moderation_log" ADD COLUMN "target_label" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_verification_tokens" ADD CONSTRAINT "email_verification_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_verification_tokens_hash_unique" ON "email_verification_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_verification_tokens_user_idx" ON "email_verification_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "media_deletions_next_attempt_idx" ON "media_deletions" USING btree ("next_attempt_at");--> statement-breakpoint
UPDATE users SET email_verified = 1 WHERE EXISTS (SELECT 1 FROM oauth_accounts o WHERE o.user_id = users.id AND lower(o.email) = users.email);--> statement-breakpoint
UPDATE moderation_log SET actor_username = (SELECT u.username FROM users u WHERE u.id = moderation_log.actor_id) WHERE actor_id IS NOT NULL;--> statement-breakpoint
UPDATE moderation_log SET target_label = CASE target_type
  WHEN 'user' THEN (SELECT u.username FROM users u WHERE u.id = moderation_log.target_id)
  WHEN 'upload' THEN (SELECT substr(p.description, 1, 80) FROM uploads p WHERE p.id = moderation_log.target_id)
  WHEN 'report' THEN (SELECT r.reason FROM reports r WHERE r.id = moderation_log.target_id)
END;
