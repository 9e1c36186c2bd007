CREATE TABLE `partial_credit_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`invoice_id` text NOT NULL,
	`refund_part_id` text NOT NULL,
	`issuer` text NOT NULL,
	`number` text NOT NULL,
	`financial_year` text NOT NULL,
	`issued_at` text NOT NULL,
	`reason` text NOT NULL,
	`taxable_value_paise` integer NOT NULL,
	`cgst_paise` integer NOT NULL,
	`sgst_paise` integer NOT NULL,
	`igst_paise` integer NOT NULL,
	`total_paise` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`refund_part_id`) REFERENCES `refund_parts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partial_credit_notes_issuer_number_idx` ON `partial_credit_notes` (`issuer`,`number`);--> statement-breakpoint
CREATE INDEX `partial_credit_notes_invoice_idx` ON `partial_credit_notes` (`invoice_id`);--> statement-breakpoint
CREATE INDEX `partial_credit_notes_issuer_issued_idx` ON `partial_credit_notes` (`issuer`,`issued_at`);--> statement-breakpoint
CREATE TABLE `refund_parts` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`order_id` text NOT NULL,
	`booking_id` text NOT NULL,
	`user_id` text NOT NULL,
	`fee_paise` integer NOT NULL,
	`amount_paise` integer NOT NULL,
	`kind` text NOT NULL,
	`reason` text NOT NULL,
	`actor_user_id` text,
	`cancelled_tickets` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`gateway_refund_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `payment_orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `refund_parts_payment_idx` ON `refund_parts` (`payment_id`);--> statement-breakpoint
CREATE INDEX `refund_parts_booking_idx` ON `refund_parts` (`booking_id`);--> statement-breakpoint
CREATE INDEX `refund_parts_due_idx` ON `refund_parts` (`status`,`next_attempt_at`);