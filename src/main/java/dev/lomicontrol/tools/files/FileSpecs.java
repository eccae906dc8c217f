package dev.lomicontrol.tools.files;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The files tools: each declared once, with its input and output records. */
public final class FileSpecs {

    private FileSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
