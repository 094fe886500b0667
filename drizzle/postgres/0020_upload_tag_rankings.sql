-- upload_tags' copies of its upload's counts and rankings (upload_upvotes …), so a tag's
-- public uploads in a ranking are one range of that ranking's index on upload_tags. The
-- copies are filled before the indexes are made: one build of each, not 4 indexes
-- rewritten per link (a million uploads' 2.5 million links). The triggers that keep them
-- are the next migration's.
ALTER TABLE "upload_tags" ADD COLUMN "upload_upvotes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "upload_tags" ADD COLUMN "upload_downvote_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "upload_tags" ADD COLUMN "upload_hot_score" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "upload_tags" ADD COLUMN "upload_best_score" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "upload_tags" ADD COLUMN "upload_divisive_score" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "upload_tags" ut SET "upload_upvotes" = u."upvotes", "upload_downvote_count" = u."downvote_count",
  "upload_hot_score" = u."hot_score", "upload_best_score" = u."best_score", "upload_divisive_score" = u."divisive_score"
  FROM "uploads" u WHERE u."id" = ut."upload_id";
--> statement-breakpoint
CREATE INDEX "upload_tags_tag_top_idx" ON "upload_tags" USING btree ("tag_id","upload_upvotes" desc,"upload_downvote_count" desc,"upload_created_at" desc,"upload_id" desc) WHERE "upload_tags"."upload_is_private" = 0;--> statement-breakpoint
CREATE INDEX "upload_tags_tag_hot_idx" ON "upload_tags" USING btree ("tag_id","upload_hot_score" desc,"upload_created_at" desc,"upload_id" desc) WHERE "upload_tags"."upload_is_private" = 0;--> statement-breakpoint
CREATE INDEX "upload_tags_tag_best_idx" ON "upload_tags" USING btree ("tag_id","upload_best_score" desc,"upload_created_at" desc,"upload_id" desc) WHERE "upload_tags"."upload_is_private" = 0;--> statement-breakpoint
CREATE INDEX "upload_tags_tag_divisive_idx" ON "upload_tags" USING btree ("tag_id","upload_divisive_score" desc,"upload_created_at" desc,"upload_id" desc) WHERE "upload_tags"."upload_is_private" = 0;