ALTER TABLE "tags" ADD COLUMN "public_uploads" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "tags_public_uploads_idx" ON "tags" USING btree ("public_uploads");