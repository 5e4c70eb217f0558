"""The call: registry, dispatch, arguments and their checks, undo steps per call, progress, audit."""
