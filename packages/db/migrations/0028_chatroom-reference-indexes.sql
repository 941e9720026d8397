CREATE INDEX "unanswered_question_asks_chatroom_idx" ON "unanswered_question_asks" USING btree ("chatroom_id");--> statement-breakpoint
CREATE INDEX "chatrooms_app_with_a_person_idx" ON "chatrooms" USING btree ("application_id","last_message_at","id") WHERE waiting_since IS NOT NULL OR handled_by = 'human';--> statement-breakpoint
CREATE INDEX "integration_threads_chatroom_idx" ON "integration_threads" USING btree ("chatroom_id");--> statement-breakpoint
CREATE INDEX "notifications_chatroom_idx" ON "notifications" USING btree ("chatroom_id") WHERE chatroom_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "stored_responses_chatroom_idx" ON "stored_responses" USING btree ("chatroom_id") WHERE chatroom_id IS NOT NULL;