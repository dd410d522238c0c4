CREATE TABLE "cameras" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'ipc' NOT NULL,
	"source_type" text NOT NULL,
	"other" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_tag_members" (
	"tag_id" integer NOT NULL,
	"channel_id" text NOT NULL,
	CONSTRAINT "channel_tag_members_tag_id_channel_id_pk" PRIMARY KEY("tag_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "channel_tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" text PRIMARY KEY NOT NULL,
	"ship_id" text NOT NULL,
	"name" text NOT NULL,
	"block" integer DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "definition_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"display_name" text NOT NULL,
	"default_model_id" integer
);
--> statement-breakpoint
CREATE TABLE "definition_models" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"display_name" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"frame_rate" integer NOT NULL,
	"bitrate_kbps" integer NOT NULL,
	"codec" text DEFAULT 'h264' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"user_id" text NOT NULL,
	"org_id" text NOT NULL,
	"role" text DEFAULT 'manager' NOT NULL,
	CONSTRAINT "memberships_user_id_org_id_pk" PRIMARY KEY("user_id","org_id")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"parent_id" text,
	"wait_time_seconds" integer DEFAULT 8 NOT NULL,
	"auto_shutdown_enabled" boolean DEFAULT true NOT NULL,
	"auto_shutdown_minutes" integer DEFAULT 20 NOT NULL,
	"auto_shutdown_countdown_seconds" integer DEFAULT 10 NOT NULL,
	CONSTRAINT "organizations_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"address" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ship_configs" (
	"ship_id" text PRIMARY KEY NOT NULL,
	"default_group_id" integer,
	"talk" boolean DEFAULT false NOT NULL,
	"audio" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ship_definition_groups" (
	"ship_id" text NOT NULL,
	"group_id" integer NOT NULL,
	CONSTRAINT "ship_definition_groups_ship_id_group_id_pk" PRIMARY KEY("ship_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "ships" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"en_name" text DEFAULT '' NOT NULL,
	"org_id" text NOT NULL,
	"json_object" jsonb NOT NULL,
	"time_zone" text DEFAULT 'Asia/Shanghai' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"display_name" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_username_unique" UNIQUE("username")
);
--> statement-breakpoint
ALTER TABLE "cameras" ADD CONSTRAINT "cameras_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_tag_members" ADD CONSTRAINT "channel_tag_members_tag_id_channel_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."channel_tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_tag_members" ADD CONSTRAINT "channel_tag_members_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_tags" ADD CONSTRAINT "channel_tags_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_ship_id_ships_id_fk" FOREIGN KEY ("ship_id") REFERENCES "public"."ships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "definition_groups" ADD CONSTRAINT "definition_groups_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "definition_models" ADD CONSTRAINT "definition_models_group_id_definition_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."definition_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_configs" ADD CONSTRAINT "ship_configs_ship_id_ships_id_fk" FOREIGN KEY ("ship_id") REFERENCES "public"."ships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_configs" ADD CONSTRAINT "ship_configs_default_group_id_definition_groups_id_fk" FOREIGN KEY ("default_group_id") REFERENCES "public"."definition_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_definition_groups" ADD CONSTRAINT "ship_definition_groups_ship_id_ships_id_fk" FOREIGN KEY ("ship_id") REFERENCES "public"."ships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_definition_groups" ADD CONSTRAINT "ship_definition_groups_group_id_definition_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."definition_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ships" ADD CONSTRAINT "ships_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cameras_channel_idx" ON "cameras" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "channels_ship_idx" ON "channels" USING btree ("ship_id");--> statement-breakpoint
CREATE INDEX "definition_models_group_idx" ON "definition_models" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "organizations_parent_idx" ON "organizations" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_one_active_per_user" ON "sessions" USING btree ("user_id") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "ships_org_idx" ON "ships" USING btree ("org_id");