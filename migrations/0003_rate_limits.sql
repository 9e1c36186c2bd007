CREATE TABLE `rate_limit_hits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`limit_name` text NOT NULL,
	`key` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_limit_hits_key_idx` ON `rate_limit_hits` (`limit_name`,`key`,`expires_at`);--> statement-breakpoint
CREATE INDEX `rate_limit_hits_expiry_idx` ON `rate_limit_hits` (`expires_at`);