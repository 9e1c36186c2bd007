ALTER TABLE `outbox` ADD `priority` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `outbox_due_by_priority_idx` ON `outbox` (`status`,`priority`,`next_attempt_at`);