CREATE TABLE "user_hidden_tags" (
	"user_id" text NOT NULL,
	"slug" text NOT NULL,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL,
	CONSTRAINT "user_hidden_tags_user_id_slug_pk" PRIMARY KEY("user_id","slug")
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "hot_score" double precision GENERATED ALWAYS AS (sign(CAST(upvotes - downvote_count AS double precision))
  * log10(CAST(CASE WHEN abs(upvotes - downvote_count) > 1 THEN abs(upvotes - downvote_count) ELSE 1 END AS double precision))
  + (CAST(extract(epoch FROM make_timestamp(CAST(substr(created_at, 1, 4) AS integer),
  CAST(substr(created_at, 6, 2) AS integer), CAST(substr(created_at, 9, 2) AS integer), CAST(substr(created_at, 12, 2) AS integer),
  CAST(substr(created_at, 15, 2) AS integer), CAST(substr(created_at, 18, 6) AS double precision))) AS double precision) - 1700000000) / 45000) STORED;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "best_score" double precision GENERATED ALWAYS AS (CASE WHEN (upvotes + downvote_count) = 0 THEN 0 ELSE
  ((CAST(upvotes AS double precision) / (upvotes + downvote_count)) + 3.8416 / (2 * (upvotes + downvote_count)) - 1.96 * sqrt(((CAST(upvotes AS double precision) / (upvotes + downvote_count)) * (1 - (CAST(upvotes AS double precision) / (upvotes + downvote_count))) + 3.8416 / (4 * (upvotes + downvote_count))) / (upvotes + downvote_count))) / (1 + 3.8416 / (upvotes + downvote_count)) END) STORED;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "divisive_score" double precision GENERATED ALWAYS AS (CASE WHEN upvotes = 0 OR downvote_count = 0 THEN 0 ELSE
  power(CAST((upvotes + downvote_count) AS double precision),
    CAST(CASE WHEN upvotes < downvote_count THEN upvotes ELSE downvote_count END AS double precision)
    / CASE WHEN upvotes < downvote_count THEN downvote_count ELSE upvotes END) END) STORED;--> statement-breakpoint
ALTER TABLE "user_hidden_tags" ADD CONSTRAINT "user_hidden_tags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_public_hot_idx" ON "uploads" USING btree ("hot_score" desc,"created_at" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
CREATE INDEX "uploads_public_best_idx" ON "uploads" USING btree ("best_score" desc,"created_at" desc) WHERE "uploads"."is_private" = 0;--> statement-breakpoint
CREATE INDEX "uploads_public_divisive_idx" ON "uploads" USING btree ("divisive_score" desc,"created_at" desc) WHERE "uploads"."is_private" = 0;