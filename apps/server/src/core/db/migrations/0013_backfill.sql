CREATE TABLE "backfill_org_settings" (
	"org_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "record_configs" ADD COLUMN "backfill" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "recordings" ADD COLUMN "backfilled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "recordings" ADD COLUMN "ended_unwatched" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "backfill_org_settings" ADD CONSTRAINT "backfill_org_settings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;