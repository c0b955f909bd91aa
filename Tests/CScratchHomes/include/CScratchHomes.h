#ifndef C_SCRATCH_HOMES_H
#define C_SCRATCH_HOMES_H

/// The folder that holds this test process's XDG_DATA_HOME (`data`) and XDG_STATE_HOME
/// (`state`), set before main; NULL when it could not be made (the user's folders are then
/// in use, and the test that checks this fails).
const char *_Nullable swift_keychain_tests_scratch_homes(void);

#endif
