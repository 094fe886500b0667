CREATE TABLE "user_vote_counts" (
	"user_id" text NOT NULL,
	"shard" text NOT NULL,
	"votes" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "user_vote_counts_user_id_shard_pk" PRIMARY KEY("user_id","shard")
);
--> statement-breakpoint
ALTER TABLE "user_vote_counts" ADD CONSTRAINT "user_vote_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;