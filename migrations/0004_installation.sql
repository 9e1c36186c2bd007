CREATE TABLE `installation` (
	`id` integer PRIMARY KEY NOT NULL,
	`app_secret_fingerprint` text NOT NULL,
	`created_at` text NOT NULL
);
