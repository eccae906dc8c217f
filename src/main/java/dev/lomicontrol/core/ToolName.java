package dev.lomicontrol.core;

/** An MCP tool name, e.g. {@code lomi_files_mutate}. */
public record ToolName(String value) {

    public ToolName {
        Ids.requireToken(value, "tool");
    }

    @Override
    public String toString() {
        return value;
    }
}
