package dev.lomicontrol.tools.chat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WireString;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The Chat AI tools of the reference (conversations explicitly shared with a connection), declared
 * with the reference's inputs; served by the broker's {@code ChatCalls} on the {@code chat} module.
 */
public final class ChatSpecs {

    private ChatSpecs() {}

    /** A conversation, message, request or connection id as the reference's valid_chat_id: 1-100 of A-Za-z0-9-_. */
    @WireString(maxLength = 100, pattern = "[A-Za-z0-9_-]+", description = "a chat id (1-100 of A-Za-z0-9_-)")
    public record ChatId(String value) {
        @Override
        public String toString() {
            return value;
        }
    }

    // ---------------------------------------------------------------- inputs

    public record ListInput(
            WorkspaceId workspaceId,

            @Doc("the first entry (default 0)") @Range(min = 0, max = 65535) @Default("0")
            int offset,

            @Doc("entries per page, 1-64 (default 20)") @Range(min = 1, max = 64) @Default("20")
            int limit,

            @Doc("the revision of the first page; required at a nonzero offset")
            Optional<Token> expectedRevision) {
        public ListInput {
            if (offset != 0 && expectedRevision.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "expectedRevision (the revision of the first page) is required at a nonzero offset");
            }
        }
    }

    /** Which text of a conversation to read (the reference's {@code type} union). */
    @Tagged("type")
    public sealed interface Part {}

    @Tag("draft")
    public record Draft() implements Part {}

    @Tag("message")
    public record Message(
            @Doc("the message; null = the active leaf") Optional<ChatId> messageId) implements Part {}

    public record ReadInput(
            WorkspaceId workspaceId,
            ChatId conversationId,
            @Doc("type draft, or message {messageId?}") Part part,

            @Doc("where to start, in UTF-16 units (default 0)") @Range(min = 0, max = 4294967295L) @Default("0")
            long startUtf16,

            @Doc("UTF-16 units to read, 2-8192 (default 8192)") @Range(min = 2, max = 8192) @Default("8192")
            int maxChars,

            @Doc("the revision of the first page; required for later pages")
            Optional<Token> expectedRevision,

            @Doc("also answer the configured send target (needs chat.send)") @Default("false")
            boolean includeSendTarget) {
        public ReadInput {
            if (startUtf16 != 0 && expectedRevision.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "expectedRevision (the revision of the first page) is required after the first page");
            }
        }
    }

    public enum Format {
        MARKDOWN,
        JSON
    }

    public record ExportInput(
            WorkspaceId workspaceId,
            ChatId conversationId,
            @Doc("markdown or json") Format format,
            @Range(min = 0, max = 4294967295L) @Default("0") long startUtf16,

            @Doc("UTF-16 units to read, 2-8192 (default 8192)") @Range(min = 2, max = 8192) @Default("8192")
            int maxChars,

            @Doc("revision of the first page (SHA-256 of the whole document); required for later pages")
            Optional<Token> expectedRevision) {
        public ExportInput {
            if (startUtf16 != 0 && expectedRevision.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "expectedRevision (the revision of the first page) is required after the first page");
            }
        }
    }

    /** The conversation to open (the reference's {@code type} union: {@code {type:"existing", conversationId}} or {@code {type:"new"}}). */
    @Tagged("type")
    public sealed interface Target {}

    @Tag("existing")
    public record Existing(ChatId conversationId) implements Target {}

    @Tag("new")
    public record New() implements Target {}

    public record OpenInput(
            WorkspaceId workspaceId,

            @Doc("type existing {conversationId}, or new (also needs chat.create)")
            Target target,

            @Doc("the current domainRevision") Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record DraftInput(
            WorkspaceId workspaceId,
            @Doc("the open chat panel") Token panelId,
            ChatId conversationId,

            @Doc("the whole new draft text, at most 32 KiB of UTF-8") @Len(max = 32768)
            String text,

            @Doc("the draft revision last read") Token expectedDraftRevision,
            @Doc("the conversation revision last read") Token expectedConversationRevision,
            Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {
        public DraftInput {
            if (text.getBytes(StandardCharsets.UTF_8).length > 32 * 1024) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "text is more than 32 KiB of UTF-8");
            }
        }
    }

    public record SendInput(
            WorkspaceId workspaceId,
            Token panelId,
            ChatId conversationId,

            @Doc("the configured connection (lomi_chat_read includeSendTarget)")
            ChatId connectionId,

            @Doc("the configured model") @Len(min = 1, max = 256) @Matches(Matches.NO_CONTROLS)
            String model,

            Token expectedDraftRevision,
            Token expectedConversationRevision,
            Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record StopInput(
            WorkspaceId workspaceId,
            ChatId conversationId,

            @Doc("request.requestId from lomi_chat_read or the send result")
            ChatId requestId,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable {}

    // ---------------------------------------------------------------- outputs

    public record Summary(
            String conversationId,
            String title,
            String conversationRevision,
            Optional<String> latestMessageId,
            String updatedAtMillis) {}

    @Tag("chat_list")
    public record Listed(
            WorkspaceId workspaceId,
            String revision,
            List<Summary> items,
            int total,
            int offset,
            Optional<Integer> nextOffset) {}

    public record SendTarget(String connectionId, String model, long maxOutputTokens) {}

    public record Request(String requestId, String assistantId, String status) {}

    @Tag("chat_read")
    public record Read(
            WorkspaceId workspaceId,
            Summary conversation,
            @Doc("persisted_checkpoint") String source,
            Part part,
            String revision,
            Optional<String> draftRevision,
            Optional<String> parentMessageId,
            String role,
            String status,
            String content,
            long startUtf16,
            long totalUtf16,
            Optional<Long> nextUtf16,
            boolean attachmentsOmitted,
            boolean nonTextPartsOmitted,
            Optional<SendTarget> sendTarget,
            Optional<Request> request) {}

    @Tag("chat_export")
    public record Exported(
            WorkspaceId workspaceId,
            String conversationId,
            Format format,
            String revision,
            long totalBytes,
            int messageCount,
            String content,
            long startUtf16,
            long totalUtf16,
            Optional<Long> nextUtf16,
            boolean attachmentsOmitted,
            boolean nonTextPartsOmitted) {}

    // ---------------------------------------------------------------- operation results

    @Tag("chat_opened")
    public record Opened(WorkspaceId workspaceId, String panelId, String conversationId, boolean created) {}

    @Tag("chat_draft_updated")
    public record DraftUpdated(
            WorkspaceId workspaceId,
            String panelId,
            String conversationId,
            String draftRevision,
            String conversationRevision,
            String textSha256,
            long totalUtf16) {}

    @Tag("chat_sent")
    public record Sent(
            WorkspaceId workspaceId,
            String panelId,
            String conversationId,
            String requestId,
            String userId,
            String assistantId,
            String connectionId,
            String model,

            @Doc("null: only reserved, not yet accepted by the provider")
            Optional<String> draftRevision,

            @Doc("the error code the send was refused with") Optional<String> rejection) {}

    @Tag("chat_stopped")
    public record Stopped(WorkspaceId workspaceId, String conversationId, Request request, boolean alreadyFinished) {}

    // ---------------------------------------------------------------- the tools

    public static final ToolSpec<ListInput> LIST = ToolSpec.read(
            "lomi_chat_list",
            "List shared chats",
            "chat.read",
            "R-I-",
            ListInput.class,
            Listed.class,
            "Metadata of the Chat AI conversations explicitly shared with this connection in the workspace's project (at most "
                    + "64, stable order, limit 1-64; pass revision at a nonzero offset). Starts no model and reads no credentials.");

    public static final ToolSpec<ReadInput> READ = ToolSpec.read(
            "lomi_chat_read",
            "Read a shared chat",
            "chat.read",
            "R-I-",
            ReadInput.class,
            Read.class,
            "A bounded persisted checkpoint of one shared conversation: part.type draft, or message (messageId null = the active "
                    + "leaf); text only, 2-8192 UTF-16 units a page, later pages need the revision.");

    public static final ToolSpec<ExportInput> EXPORT = ToolSpec.read(
            "lomi_chat_export",
            "Export a shared chat",
            "chat.export",
            "R-I-",
            ExportInput.class,
            Exported.class,
            "The saved text of a shared conversation as one Markdown or JSON document (at most 512 "
                    + "messages, 4 MiB; refused, not truncated, when larger), paged in UTF-16 units; revision is the SHA-256 of the whole "
                    + "document. Writes no file.");

    public static final ToolSpec<OpenInput> OPEN = ToolSpec.operation(
            "lomi_chat_open",
            "Open a chat",
            "chat.open",
            "--I-",
            OpenInput.class,
            Opened.class,
            "Opens a shared conversation (target.type existing) or creates one (target.type new, needs chat.create) in a "
                    + "panel; never sends a provider request. Durable operation; poll it for the conversation and panel ids.");

    public static final ToolSpec<DraftInput> DRAFT = ToolSpec.operation(
            "lomi_chat_draft",
            "Replace a chat draft",
            "chat.draft",
            "-DI-",
            DraftInput.class,
            DraftUpdated.class,
            "Compare-and-set replaces the draft of an open shared conversation (at most 32 KiB); saves "
                    + "locally and never sends.");

    public static final ToolSpec<SendInput> SEND = ToolSpec.operation(
            "lomi_chat_send",
            "Send a chat draft",
            "chat.send",
            "--IO",
            SendInput.class,
            Sent.class,
            "Sends the exact persisted draft to the configured connection and model; awaiting_user until a human approves the "
                    + "context, target and possible provider charges. draftRevision null in the result = reserved only. Never retry with a "
                    + "new key after an uncertain answer.");

    public static final ToolSpec<StopInput> STOP = ToolSpec.operation(
            "lomi_chat_stop",
            "Stop a chat request",
            "chat.stop",
            "-DI-",
            StopInput.class,
            Stopped.class,
            "Stops one exact native request id of a shared conversation and waits up to 5 s for its "
                    + "checkpoint; a finished request answers its saved state.");

    public static final List<ToolSpec<?>> ALL = List.of(LIST, READ, EXPORT, OPEN, DRAFT, SEND, STOP);
}
