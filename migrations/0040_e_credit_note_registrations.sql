CREATE TABLE `e_credit_note_registrations` (
	`credit_note_id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`invoice_id` text NOT NULL,
	`issuer` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`last_error` text,
	`irn` text,
	`ack_number` text,
	`ack_date` text,
	`signed_qr_code` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `e_credit_note_registrations_due_idx` ON `e_credit_note_registrations` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `e_credit_note_registrations_issuer_idx` ON `e_credit_note_registrations` (`issuer`,`status`);