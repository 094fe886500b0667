CREATE TABLE "duel_judgements" (
	"id" text PRIMARY KEY NOT NULL,
	"low_id" text NOT NULL,
	"high_id" text NOT NULL,
	"user_id" text,
	"fingerprint" text,
	"ip_hash" text,
	"winner" text NOT NULL,
	"counted" integer DEFAULT 0 NOT NULL,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "duel_strength" double precision DEFAULT 1500 NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "duel_wins" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "duel_losses" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "duel_judgements" ADD CONSTRAINT "duel_judgements_low_id_uploads_id_fk" FOREIGN KEY ("low_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duel_judgements" ADD CONSTRAINT "duel_judgements_high_id_uploads_id_fk" FOREIGN KEY ("high_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duel_judgements" ADD CONSTRAINT "duel_judgements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "duel_judgements_user_pair_unique" ON "duel_judgements" USING btree ("user_id","low_id","high_id");--> statement-breakpoint
CREATE UNIQUE INDEX "duel_judgements_fingerprint_pair_unique" ON "duel_judgements" USING btree ("fingerprint","low_id","high_id");--> statement-breakpoint
CREATE UNIQUE INDEX "duel_judgements_ip_pair_unique" ON "duel_judgements" USING btree ("ip_hash","low_id","high_id");--> statement-breakpoint
CREATE INDEX "duel_judgements_low_idx" ON "duel_judgements" USING btree ("low_id");--> statement-breakpoint
CREATE INDEX "duel_judgements_high_idx" ON "duel_judgements" USING btree ("high_id");--> statement-breakpoint
CREATE INDEX "uploads_duel_pool_idx" ON "uploads" USING btree ("duel_strength","id") WHERE "uploads"."is_private" = 0 AND "uploads"."upload_type" = 'image';--> statement-breakpoint
CREATE INDEX "uploads_duel_ranked_idx" ON "uploads" USING btree ("duel_strength" desc,"id" desc) WHERE "uploads"."is_private" = 0 AND "uploads"."upload_type" = 'image' AND "uploads"."duel_wins" + "uploads"."duel_losses" >= 5;