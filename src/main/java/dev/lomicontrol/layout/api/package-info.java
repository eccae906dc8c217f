/**
 * The workspace, project and panel tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.layout.api;

import org.jspecify.annotations.NullMarked;
