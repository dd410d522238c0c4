ALTER TABLE "backfill_org_settings" ALTER COLUMN "enabled" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "backfill_org_settings" ADD COLUMN "definition" text;--> statement-breakpoint
ALTER TABLE "record_configs" ADD COLUMN "backfill_definition" text;--> statement-breakpoint
ALTER TABLE "recordings" ADD COLUMN "definition" jsonb;