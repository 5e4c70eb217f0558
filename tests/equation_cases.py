"""LaTeX expressions typical of papers (tests/ooxml/math/test_equations_roundtrip.py, the LibreOffice check)."""

EXPRESSIONS = [
    # algebra
    r"x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}", r"ax^2 + bx + c = 0", r"(a+b)^2 = a^2 + 2ab + b^2",
    r"a^2 - b^2 = (a-b)(a+b)", r"\frac{1}{1-x} = \sum_{n=0}^{\infty} x^n", r"x_{1,2}", r"x^{n+1}",
    r"a_{ij}", r"x_i^2", r"e^{i\pi} + 1 = 0", r"e^{-x^2}", r"2^{2^{n}}", r"\frac{a}{b} + \frac{c}{d}",
    r"\frac{\frac{1}{x}+1}{\frac{1}{y}-1}", r"\frac{1}{1+\frac{1}{1+\frac{1}{x}}}", r"\frac{n!}{k!(n-k)!}",
    r"\binom{n}{k}", r"\binom{n}{k} = \binom{n-1}{k-1} + \binom{n-1}{k}", r"\sqrt{2}", r"\sqrt[3]{x}",
    r"\sqrt[n]{a^m}", r"\sqrt{x^2 + y^2}", r"\sqrt{1 + \sqrt{1 + \sqrt{x}}}", r"|x| \le 1", r"x \neq y",
    r"a \ge b", r"a \approx b", r"a \equiv b", r"p \propto q", r"x \in \mathbb{R}",
    r"n \in \mathbb{N}", r"z \in \mathbb{C}", r"A \subseteq B", r"A \cup B", r"A \cap B", r"A \setminus B",
    r"\emptyset", r"\forall x \exists y", r"\neg p \lor q", r"p \land q", r"p \Rightarrow q",
    r"p \Leftrightarrow q", r"f: X \to Y", r"x \mapsto x^2", r"a \times b", r"a \cdot b", r"a \div b",
    r"\infty", r"\partial f", r"\nabla f", r"f'(x)", r"f''(x)", r"\ldots", r"\cdots", r"x_1, \ldots, x_n",
    # Greek
    r"\alpha + \beta = \gamma", r"\delta \epsilon \zeta", r"\eta \theta \iota \kappa", r"\lambda \mu \nu",
    r"\xi \pi \rho \sigma", r"\tau \upsilon \phi \chi", r"\psi \omega", r"\Gamma \Delta \Theta",
    r"\Lambda \Xi \Pi", r"\Sigma \Phi \Psi \Omega", r"\varepsilon", r"\varphi", r"\vartheta",
    r"\sigma^2", r"\mu_0", r"\hbar \omega", r"\ell",
    # sums, products, integrals
    r"\sum_{i=1}^{n} i = \frac{n(n+1)}{2}", r"\sum_{k=0}^{n} \binom{n}{k} = 2^n", r"\prod_{i=1}^{n} x_i",
    r"\prod_{p} \frac{1}{1-p^{-s}}", r"\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}",
    r"\int_0^1 x^2 dx", r"\int_{-\infty}^{\infty} e^{-x^2} dx = \sqrt{\pi}", r"\int_a^b f(x) dx",
    r"\iint_D f dA", r"\iiint_V \rho dV", r"\oint_C F \cdot dr", r"\int f", r"\sum_{i} a_i",
    r"\bigcup_{i=1}^{n} A_i", r"\bigcap_{i} B_i", r"\sum_{i=1}^{n} \sum_{j=1}^{m} a_{ij}",
    r"\int_0^{2\pi} \sin\theta d\theta", r"\coprod_{i} X_i", r"\bigoplus_{i} V_i",
    # limits and functions
    r"\lim_{x \to 0} \frac{\sin x}{x} = 1", r"\lim_{n \to \infty} \left(1 + \frac{1}{n}\right)^n = e",
    r"\sin^2 x + \cos^2 x = 1", r"\tan x = \frac{\sin x}{\cos x}", r"\log_2 n", r"\ln x", r"\exp(x)",
    r"\max_{i} x_i", r"\min_{x} f(x)", r"\sup_{n} a_n", r"\inf_{n} a_n", r"\det A", r"\arctan x",
    r"\operatorname{sgn} x", r"\operatorname{tr} A", r"\operatorname{argmax} f", r"\operatorname{Var}(X)",
    r"\cosh x", r"\gcd(a, b)", r"\limsup_{n} a_n",
    # delimiters
    r"\left( \frac{a}{b} \right)", r"\left[ x \right]", r"\left\{ x \right\}", r"\left| x \right|",
    r"\left\| v \right\|", r"\left\langle u, v \right\rangle", r"\left( \sum_{i} x_i \right)^2",
    r"\left. \frac{df}{dx} \right|_{x=0}", r"\left\lfloor x \right\rfloor", r"\left\lceil x \right\rceil",
    r"\left( x \right]", r"\left[ 0, 1 \right)",
    # matrices and arrays
    r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}", r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}",
    r"\begin{vmatrix} a & b \\ c & d \end{vmatrix} = ad - bc", r"\begin{matrix} x & y \\ z & w \end{matrix}",
    r"\begin{pmatrix} 1 & 2 & 3 \\ 4 & 5 & 6 \\ 7 & 8 & 9 \end{pmatrix}", r"A = \begin{bmatrix} a_{11} & a_{12} \\ a_{21} & a_{22} \end{bmatrix}",
    r"\begin{pmatrix} x \\ y \end{pmatrix}",
    r"f(x) = \begin{cases} 1 & x > 0 \\ 0 & x \le 0 \end{cases}",
    r"|x| = \begin{cases} x & x \ge 0 \\ -x & x < 0 \end{cases}",
    r"\begin{aligned} a &= b + c \\ d &= e \end{aligned}",
    r"\begin{aligned} f(x) &= x^2 \\ g(x) &= \sqrt{x} \end{aligned}",
    # accents, bars, braces
    r"\hat{x}", r"\bar{x}", r"\dot{x}", r"\ddot{x}", r"\vec{v}", r"\tilde{x}", r"\check{x}", r"\breve{x}",
    r"\acute{x}", r"\grave{x}", r"\hat{\theta} = \bar{x}", r"\overline{AB}", r"\underline{x}",
    r"\overline{z_1 z_2} = \overline{z_1} \overline{z_2}", r"\underbrace{a + b}_{n}", r"\overbrace{x + y}^{k}",
    r"\vec{F} = m \vec{a}", r"\dot{q} = \frac{\partial H}{\partial p}", r"\widehat{xy}", r"\widetilde{AB}",
    # styled letters, text, spacing
    r"\mathbf{x}", r"\mathbb{E}[X]", r"\mathcal{L}", r"\mathcal{O}(n \log n)", r"\mathfrak{g}",
    r"\text{if } x > 0", r"x = 1 \text{ and } y = 2", r"\text{for all } n", r"a \, b", r"a \quad b",
    r"a \; b", r"a \qquad b",
    # physics and statistics
    r"E = mc^2", r"F = G \frac{m_1 m_2}{r^2}", r"\nabla \cdot \mathbf{E} = \frac{\rho}{\varepsilon_0}",
    r"\nabla \times \mathbf{B} = \mu_0 \mathbf{J}", r"i\hbar \frac{\partial}{\partial t} \psi = H \psi",
    r"\frac{\partial^2 u}{\partial t^2} = c^2 \nabla^2 u", r"P(A|B) = \frac{P(B|A)P(A)}{P(B)}",
    r"\mu = \frac{1}{N} \sum_{i=1}^{N} x_i", r"\sigma = \sqrt{\frac{1}{N} \sum_{i=1}^{N} (x_i - \mu)^2}",
    r"f(x) = \frac{1}{\sigma \sqrt{2\pi}} e^{-\frac{(x-\mu)^2}{2\sigma^2}}", r"X \sim \mathcal{N}(\mu, \sigma^2)",
    r"\hat{\beta} = (X^T X)^{-1} X^T y", r"\frac{d}{dx} e^x = e^x", r"\frac{dy}{dx} = ky",
    r"\Delta S \ge 0", r"PV = nRT", r"\lambda = \frac{h}{p}", r"\omega = 2\pi f",
    r"{}^{14}_{6}C", r"\sum_{i=1}^{n} (x_i - \bar{x})^2", r"\boxed{E = mc^2}",
    r"a_{n+1} = a_n + d", r"\cos(\alpha + \beta) = \cos\alpha \cos\beta - \sin\alpha \sin\beta",
    r"\zeta(s) = \sum_{n=1}^{\infty} n^{-s}", r"\Gamma(n) = (n-1)!", r"\langle x \rangle",
]
