CREATE TABLE `user_vote_counts` (
	`user_id` text NOT NULL,
	`shard` text NOT NULL,
	`votes` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `shard`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
