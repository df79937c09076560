#pragma once
float sincos_demo(float x)
{
    float s, c;
    sincos(x, s, c);
    return s * c;
}
