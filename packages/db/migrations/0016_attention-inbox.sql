CREATE TABLE "feedback_dismissals" (
	"message_id" integer PRIMARY KEY NOT NULL,
	"dismissed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unanswered_question_asks" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"answer_id" integer NOT NULL,
	"chatroom_id" integer NOT NULL,
	"question" text NOT NULL,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unanswered_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"application_id" integer NOT NULL,
	"question" text NOT NULL,
	"tokens" text[] NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"knowledge_item_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "unanswered_questions_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
ALTER TABLE "feedback_dismissals" ADD CONSTRAINT "feedback_dismissals_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unanswered_question_asks" ADD CONSTRAINT "unanswered_question_asks_group_id_unanswered_questions_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."unanswered_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unanswered_question_asks" ADD CONSTRAINT "unanswered_question_asks_answer_id_messages_id_fk" FOREIGN KEY ("answer_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unanswered_question_asks" ADD CONSTRAINT "unanswered_question_asks_chatroom_id_chatrooms_id_fk" FOREIGN KEY ("chatroom_id") REFERENCES "public"."chatrooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD CONSTRAINT "unanswered_questions_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unanswered_questions" ADD CONSTRAINT "unanswered_questions_knowledge_item_id_knowledge_items_id_fk" FOREIGN KEY ("knowledge_item_id") REFERENCES "public"."knowledge_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "unanswered_question_asks_answer_key" ON "unanswered_question_asks" USING btree ("answer_id");--> statement-breakpoint
CREATE INDEX "unanswered_question_asks_group_idx" ON "unanswered_question_asks" USING btree ("group_id","asked_at");--> statement-breakpoint
CREATE INDEX "unanswered_questions_app_idx" ON "unanswered_questions" USING btree ("application_id","status");