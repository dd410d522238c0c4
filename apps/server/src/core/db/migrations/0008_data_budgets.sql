CREATE TABLE "budget_notices" (
	"ship_id" text NOT NULL,
	"purpose" text NOT NULL,
	"period" text NOT NULL,
	"level" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_notices_ship_id_purpose_period_level_pk" PRIMARY KEY("ship_id","purpose","period","level")
);
--> statement-breakpoint
CREATE TABLE "budget_overrides" (
	"id" serial PRIMARY KEY NOT NULL,
	"ship_id" text NOT NULL,
	"org_id" text NOT NULL,
	"user_id" text NOT NULL,
	"username" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"valid_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_budgets" (
	"org_id" text NOT NULL,
	"ship_id" text DEFAULT '' NOT NULL,
	"policy" text NOT NULL,
	"caps" jsonb NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_budgets_org_id_ship_id_pk" PRIMARY KEY("org_id","ship_id")
);
--> statement-breakpoint
CREATE TABLE "link_usage" (
	"ship_id" text NOT NULL,
	"day" text NOT NULL,
	"purpose" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "link_usage_ship_id_day_purpose_pk" PRIMARY KEY("ship_id","day","purpose")
);
--> statement-breakpoint
ALTER TABLE "data_budgets" ADD CONSTRAINT "data_budgets_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "budget_overrides_ship_idx" ON "budget_overrides" USING btree ("ship_id","valid_until");--> statement-breakpoint
CREATE INDEX "budget_overrides_org_idx" ON "budget_overrides" USING btree ("org_id","created_at");