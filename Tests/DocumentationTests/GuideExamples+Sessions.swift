// Compiled copies of the code blocks in section 14 of Examples.md and of the DocC article
// "Scoping dependencies to a session". DocumentationTests checks that every ```swift block
// there appears here line for line; edit them together.

import Testing
import TinyDependency
import TinyDependencyLifecycle

// MARK: - 14. A session per signed-in user

enum ShopSession: DependencyScope {}

enum ShopperKey: DependencyKey {
  static let defaultValue = "guest"
}

final class ShoppingCart: DependencyShutdown {
  let owner: String
  init(owner: String) { self.owner = owner }

  func shutdown() async throws {
    // Save the cart, close the session's connections.
  }
}

enum ShoppingCartKey: DependencyKey {
  static var defaultValue: ShoppingCart {
    ShoppingCart(owner: DependencyValues.current[ShopperKey.self])
  }
  static var lifetime: DependencyLifetime { .scoped(ShopSession.self) }
}

@Suite("Sessions: a value per signed-in user")
struct SessionExampleTests {
  @Test func aSecondSignInSeesNothingOfTheFirst() async throws {
    let app = DependencyValues(context: .default)

    // Sign in: the session's values are built in it, once.
    let ada = app.beginScope(ShopSession.self) { $0[ShopperKey.self] = "ada" }
    let adasCart = ada.run { DependencyValues.current[ShoppingCartKey.self] }
    #expect(ada.values[ShoppingCartKey.self] === adasCart)

    // Sign out: the cart is shut down with the session.
    try await ada.end()

    // Sign in as another user, structured: begun, run and ended in one call.
    let gracesCart = try await withDependencies(app) {
      try await withDependencyScope(ShopSession.self) {
        $0[ShopperKey.self] = "grace"
      } operation: {
        DependencyValues.current[ShoppingCartKey.self]
      }
    }
    #expect(gracesCart.owner == "grace")
    #expect(gracesCart !== adasCart)
  }

  @Test func aCheckoutSeesItsSessionsCartAndKeepsItsOwnPayment() async throws {
    let session = DependencyValues(context: .default).beginScope(ShopSession.self) {
      $0[ShopperKey.self] = "ada"
    }
    let checkout = session.values.beginScope(CheckoutFlow.self)
    #expect(checkout.values[PaymentKey.self].cart === session.values[ShoppingCartKey.self])
    try await session.end()  // ends the checkout first
  }
}

// MARK: - Scopes inside scopes

enum CheckoutFlow: DependencyScope {
  typealias Parent = ShopSession  // begun only inside a session
}

final class Payment: Sendable {
  let cart: ShoppingCart
  init(cart: ShoppingCart) { self.cart = cart }
}

enum PaymentKey: DependencyKey {
  static var defaultValue: Payment {
    Payment(cart: DependencyValues.current[ShoppingCartKey.self])  // the session's cart
  }
  static var lifetime: DependencyLifetime { .scoped(CheckoutFlow.self) }
}
