CREATE TABLE "moderation_log" (
	"id" text PRIMARY KEY NOT NULL,
	"actor_id" text,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"note" text,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" text PRIMARY KEY NOT NULL,
	"upload_id" text NOT NULL,
	"reporter_id" text,
	"ip_hash" text,
	"fingerprint" text,
	"reason" text NOT NULL,
	"details" text,
	"status" text DEFAULT 'open' NOT NULL,
	"claimed_by" text,
	"resolution" text,
	"resolved_at" text,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL
);
--> statement-breakpoint
ALTER TABLE "moderation_log" ADD CONSTRAINT "moderation_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_log_newest_idx" ON "moderation_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_reporter_unique" ON "reports" USING btree ("upload_id","reporter_id") WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_ip_unique" ON "reports" USING btree ("upload_id","ip_hash") WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_fingerprint_unique" ON "reports" USING btree ("upload_id","fingerprint") WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX "reports_status_upload_idx" ON "reports" USING btree ("status","upload_id");--> statement-breakpoint
CREATE INDEX "reports_reporter_idx" ON "reports" USING btree ("reporter_id");