/**
 * The tool contract, declared once (SPEC §9): each tool's name, title, description, scope, effect,
 * hints, input record and typed output, in one file per feature ({@code <feature>/api/…Specs}, which use this framework).
 * From a declaration both processes derive everything: the published inputSchema/outputSchema
 * ({@link dev.lomicontrol.tools.ToolSpec#inputSchema()}), the one native validation that binds
 * arguments into the input record ({@link dev.lomicontrol.tools.Binder}) and the encoding of
 * results ({@link dev.lomicontrol.tools.Encoder}). Spring-free; depends on {@code core} and Jackson only.
 */
@NullMarked
package dev.lomicontrol.tools;

import org.jspecify.annotations.NullMarked;
