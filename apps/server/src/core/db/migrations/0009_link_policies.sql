CREATE TABLE "link_policies" (
	"org_id" text NOT NULL,
	"link_type" text NOT NULL,
	"many_cells" text NOT NULL,
	"few_cells" text NOT NULL,
	"full_screen" text NOT NULL,
	"stills" boolean NOT NULL,
	"stills_every_seconds" integer NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "link_policies_org_id_link_type_pk" PRIMARY KEY("org_id","link_type")
);
--> statement-breakpoint
ALTER TABLE "link_policies" ADD CONSTRAINT "link_policies_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;