/**
 * Shared chat conversations and model connections (SPEC §10 Chat, issue 16): conversations with
 * their messages, draft ({@code draftRevision}) and {@code conversationRevision} in the store
 * ({@link dev.lomicontrol.chat.Conversations}); the admin's model connections, whose API keys are
 * read from an environment variable or a 0600 file and never stored
 * ({@link dev.lomicontrol.chat.ModelConnections}); and replies streamed from a provider into the
 * conversation's checkpoint ({@link dev.lomicontrol.chat.Replies} over a
 * {@link dev.lomicontrol.chat.ModelClient}, Spring AI's OpenAI and Anthropic models in
 * {@link dev.lomicontrol.chat.SpringAiModels}).
 */
@NullMarked
package dev.lomicontrol.chat;

import org.jspecify.annotations.NullMarked;
