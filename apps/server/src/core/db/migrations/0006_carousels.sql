CREATE TABLE "carousels" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"layout" integer NOT NULL,
	"minutes" integer NOT NULL,
	"seconds" integer,
	"template_id" integer,
	"channel_ids" jsonb NOT NULL,
	"mode" text DEFAULT 'channels' NOT NULL,
	"ship_ids" jsonb NOT NULL,
	"schedule" jsonb,
	"started_at" timestamp with time zone,
	"run_job_id" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "carousels" ADD CONSTRAINT "carousels_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "carousels_org_idx" ON "carousels" USING btree ("org_id","kind");