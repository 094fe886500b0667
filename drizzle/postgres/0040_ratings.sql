ALTER TABLE "uploads" ADD COLUMN "rating" text DEFAULT 'safe' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "rating_explicit" text DEFAULT 'blur' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "rating_suggestive" text DEFAULT 'show' NOT NULL;--> statement-breakpoint
CREATE INDEX "uploads_public_rating_newest_idx" ON "uploads" USING btree ("rating","created_at" desc,"id" desc) WHERE "uploads"."is_private" = 0;