// RFC 3394's default initial value, which Apple's header exports as data.
#include "CommonCrypto/CommonSymmetricKeywrap.h"

static const uint8_t rfc3394InitialValue[8] = {0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6};

const uint8_t *const CCrfc3394_iv = rfc3394InitialValue;
const size_t CCrfc3394_ivLen = sizeof(rfc3394InitialValue);
